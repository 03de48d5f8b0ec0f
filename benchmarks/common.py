"""What the benchmark scripts share: their argument parser, and the package's JSON-lines reader and table printer
(re-exported, so a script reads results the way the package does)."""
import argparse
from cudal1_nb.jsonl import load_jsonl
from cudal1_nb.core import print_table

__all__ = ['parser', 'load_jsonl', 'print_table']


def parser(doc:str, # the script's docstring: its first line is the description
           **kw,    # more ArgumentParser keywords (formatter_class...)
          )->argparse.ArgumentParser:
    "The script's argument parser, described by the first line of its docstring."
    if not doc or not doc.strip(): raise ValueError('parser: the script has no docstring to describe it')
    return argparse.ArgumentParser(description=doc.splitlines()[0], **kw)
