"The benchmark scripts: run one as `python -m benchmarks.NAME` from a checkout (or `python benchmarks/NAME.py`)."
