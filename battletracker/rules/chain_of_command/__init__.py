from battletracker.rules.chain_of_command import anti_tank  # noqa: F401, I001
from battletracker.rules.chain_of_command import fire  # noqa: F401
from battletracker.rules.chain_of_command import reverse  # noqa: F401
from battletracker.rules.chain_of_command import machine_guns  # noqa: F401
from battletracker.rules.chain_of_command import snipers  # noqa: F401
from battletracker.rules.chain_of_command import flamethrowers  # noqa: F401
from battletracker.rules.chain_of_command import guns  # noqa: F401
from battletracker.rules.chain_of_command import grenades_into_vehicles  # noqa: F401
from battletracker.rules.chain_of_command import ranging  # noqa: F401
from battletracker.rules.chain_of_command import bombardment_phase  # noqa: F401
from battletracker.rules.chain_of_command import sos_fire  # noqa: F401
