"""Imported by a benchmark run as a file (`python benchmarks/NAME.py`): puts the checkout on `sys.path`, so the script
imports `cudal1_nb` and `benchmarks.common` as `python -m benchmarks.NAME` would. Every script's first import is the same line:

    if __name__ == '__main__' and not __package__: import _checkout   # run as a file: the checkout's package
"""
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path: sys.path.insert(0, ROOT)
