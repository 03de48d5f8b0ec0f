"""An open research workbench that reproduces and goes beyond CUDA-L1: trustworthy kernel speedup rewards, SFT, self-training and contrastive RL, and cross-GPU speedup analysis.

Modules:

- `cudal1_nb.analysis`: Speedup statistics over any set of evaluations and any baseline: the paper's (mean with missing tasks counted as 1.0x, max, quartiles, success and >1.01x counts) beside honest ones (n, geometric mean, median, mean without the top task, bootstrap confidence intervals, misses and incorrect counted), per level and overall; and the check of the paper's published per-GPU means against the release files.
- `cudal1_nb.audit`: Re-measure a CUDA-L1 release on your own device with the harness: every task's published score beside the measured speedup per baseline, the verdict and its reason -- into the variant store and to JSONL/CSV.
- `cudal1_nb.cli`: `cudal1`, the command-line entry point: list and validate tasks, download the public data, manage the variant store, and run the embedded default pipeline.
- `cudal1_nb.download`: Fetch CUDA-L1's released kernels and KernelBench's task files from their public GitHub locations, cached under the base directory.
- `cudal1_nb.eval`: The evaluation harness -- the reward: isolated workers, fresh-seed correctness against a float64 reference, strict interleaved timing with adaptive trial counts, named baselines, and parallel compiles cached by source hash.
- `cudal1_nb.minibench`: The bundled CPU mini-suite: 24 tasks of our own in three levels, each with honest `ModelNew` variants of clearly different speed -- the SFT corpus and the RL environment of the embedded default pipeline.
- `cudal1_nb.pipeline`: `cudal1 run`: the main job on the embedded default -- validate the bundled mini-suite, evaluate every variant with the harness, and record everything in the variant store and a run directory.
- `cudal1_nb.policy`: The anti-cheat policy: which dynamic check or static finding rejects a candidate (verdict `cheat`) and which only warns (a flag), each named by its catalog id; the baseline a flagged candidate is measured against; the reward; and what the harness does not protect against.
- `cudal1_nb.static`: An AST scanner over a candidate's source for the patterns of known reward hacks: streams, threads, processes, ctypes, monkey-patching of torch or time, frame and gc walking, file and network access, dynamic code, redefined size constants, tensor subclasses, CUDA graphs, backend flags -- each finding named by its catalog id.
- `cudal1_nb.tasks`: Load KernelBench-format tasks from a directory, a CUDA-L1 release file or the bundled mini-suite, and validate each one in a sandboxed process.
- `cudal1_nb.widgets`: The kernel-variant browser and the per-task leaderboard (ipywidgets), fed from the variant store: a task's reference and variants side by side with a diff, each variant's speedups per baseline and device, its verdict, flags and lineage."""

__version__ = "0.1.0"
