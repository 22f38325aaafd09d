"""The data BattleTracker ships: ruleset tables, demo battles, icons and the help guide.

A top-level folder of the checkout, installed as `battletracker.resources` (see setup.py),
so that importlib.resources finds it in every form the app ships in.
"""
