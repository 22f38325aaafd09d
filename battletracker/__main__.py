"""Allow ``python -m battletracker``."""

from battletracker.app import main

raise SystemExit(main())
