"""``python -m deploy up --replicas N --port P``: see :mod:`deploy.launcher`."""

import sys

from deploy.launcher import main

sys.exit(main(sys.argv[1:]))
