import sys

from redgen.cli import main

sys.exit(main())
