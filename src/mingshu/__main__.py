"""``python -m mingshu ...``: the same command line as ``mingshu ...``."""

from mingshu.cli import main

if __name__ == "__main__":
    main()
