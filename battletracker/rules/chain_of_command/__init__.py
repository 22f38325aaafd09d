from battletracker.rules.chain_of_command import anti_tank  # noqa: F401, I001
from battletracker.rules.chain_of_command import fire  # noqa: F401
from battletracker.rules.chain_of_command import reverse  # noqa: F401
