"""`python -m partyrummy`: the same as the `partyrummy` command."""

from .cli import main

raise SystemExit(main())
