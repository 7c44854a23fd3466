"""``python -m lucie``: the same as the ``lucie`` command."""

import sys

from lucie.cli import main

if __name__ == "__main__":
    sys.exit(main())
