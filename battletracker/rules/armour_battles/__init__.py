"""Armour Battles (Wargames Design): close-support units' direct and indirect
fire, the Reaction Check and close assault. Importing the package imports every
module of it, which registers its procedures."""

from battletracker.rules import import_modules

import_modules(__name__, __path__)
