from battletracker.rules.chain_of_command import fire  # noqa: F401
