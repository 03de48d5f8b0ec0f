"What the examples share: the service's address and token from the environment, and a sample answer to send."
import os, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # run from a checkout without installing

URL = os.environ.get('CUDAL1_SERVE_URL', 'http://127.0.0.1:8421')
TOKEN = os.environ.get('CUDAL1_SERVE_TOKEN', '')
TASK = 'minibench/L1/1'   # a task of the server's suite (the mini-suite by default)
PROGRAM = (ROOT/'data'/'minibench'/'variants'/'level1'/'1_Diag_Matmul_Column_Scale'/'broadcast.py').read_text()
PROMPT = 'Write a faster ModelNew for the program below.\n'
ANSWERS = [f"The diagonal matrix is a column scale, so broadcast it.\n```python\n{PROGRAM}```\n", "I would fuse the two kernels."]
