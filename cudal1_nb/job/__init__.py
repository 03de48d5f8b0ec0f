"""What runs inside a sandboxed job process, one module per stage of a job, in the order a job uses them: `setup` (its CUDA
context, threads, device lock, device, seeded models and inputs), `guard` (what is installed before any candidate code:
the thread watch, the per-call time limit, the tamper guard), `switches` (torch's global switches and the reference's
functions), `builds` (extension builds, Inductor compiles and the compile job), `outputs` (fingerprints, the judge's copies
and comparison, guard bands), `timing` (the timer and the paired loop) and `run` (the reference, candidate and host jobs).

Written by hand (nbdev exports the modules, not the package): the notebooks are `nbs/03e_job_setup.ipynb` to
`nbs/03h_job_run.ipynb`."""
