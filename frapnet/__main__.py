import sys

from frapnet.cli import main

sys.exit(main())
