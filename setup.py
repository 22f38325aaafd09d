"""The packages: battletracker's own, and the top-level resources/ installed inside it.

The design keeps the data (rulesets, demos, icons, help) in a top-level folder; the wheel
carries it as the package battletracker.resources, beside the code as it was always read.
pyproject.toml cannot add a mapped package to the ones it finds, hence this file; its data
files are named in pyproject.toml.
"""

from setuptools import find_namespace_packages
from setuptools import find_packages
from setuptools import setup

setup(packages=[*find_packages(include=["battletracker*"]), "battletracker.resources",
                *(f"battletracker.resources.{name}" for name in find_namespace_packages(where="resources")
                  if "__pycache__" not in name)],
      package_dir={"battletracker.resources": "resources"})
