"""Odds plot labels stay readable under the bars."""

from __future__ import annotations

from battletracker.ui.odds_plot import short_labels


def test_shared_words_move_to_the_caption() -> None:
    assert short_labels(["0 successes", "1 successes", "10 successes"]) == (["0", "1", "10"], "... successes")


def test_distinct_labels_are_kept() -> None:
    assert short_labels(["miss", "no_effect", "equal:none"]) == (["miss", "no_effect", "equal:none"], "")


def test_many_name_value_labels_are_abbreviated_with_a_legend() -> None:
    labels = [f"kills={k} shock={s}" for k in range(4) for s in range(5)]
    short, caption = short_labels(labels)
    assert short[0] == "K0 S0" and short[-1] == "K3 S4"
    assert caption == "K = kills, S = shock"


def test_outcomes_that_are_sentences_are_numbered_as_the_table_lists_them() -> None:
    labels = ["the Turn ends after this Phase",
              "the Turn ends after this Phase, with a Chain of Command die and a random event",
              "the other side's Phase next", "the same side takes the next Phase"]
    assert short_labels(labels) == (["1", "2", "3", "4"], "bars numbered in the order of the table below")
