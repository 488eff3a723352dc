"""`python -m bookrun`: the command line (bookrun.hosts.cli)."""
import sys

from bookrun.hosts.cli import main

sys.exit(main())
