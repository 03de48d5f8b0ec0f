"Run the `cudal1` command: `python -m cudal1_nb ...` is the same as `cudal1 ...`."
from cudal1_nb.cli import main

if __name__ == "__main__": main()
