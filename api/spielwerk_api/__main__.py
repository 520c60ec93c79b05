"""``python -m spielwerk_api``: the web API's command line (``cli.py``)."""

from .cli import main

raise SystemExit(main())
