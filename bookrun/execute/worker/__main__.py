"""`python -m bookrun.execute.worker JOB.json`: the session's child (bookrun.execute.worker.loop)."""
import sys

from bookrun.execute.worker.loop import main

main(sys.argv[1])
