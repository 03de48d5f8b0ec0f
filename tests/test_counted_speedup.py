"""One definition of the speedup that counts (`cudal1_nb.core.counted_speedup`): the reward, the store's ranking
(`best_k`/`exemplars`), the analysis tables, the contrastive prompt and the widget leaderboard agree on it. A program
flagged for capturing a CUDA graph, 3.0x over eager but 1.1x over the matching `cuda_graph` baseline, ranks by 1.1
everywhere -- below an honest 1.5x program -- instead of first by its eager speedup."""
import re
from cudal1_nb.core import Task, Candidate, EvalResult, counted_speedup
from cudal1_nb.store import Store

REF = '''import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x): return x * 2

def get_inputs(): return [torch.randn(8, 8)]
def get_init_inputs(): return []
'''
NEW = REF.replace('class Model', 'class ModelNew')


def _case():
    t = Task('demo', 1, 1, 'Double', REF)
    honest = Candidate(t.id, NEW.replace('x * 2', 'x + x'), name='honest', origin='me')
    graph = Candidate(t.id, NEW.replace('x * 2', 'x.mul(2)'), name='graph', origin='me')
    eh = EvalResult(honest.id, t.id, 'ok', True, {'eager': 1.5}, device='cpu')
    eg = EvalResult(graph.id, t.id, 'ok', True, {'eager': 3.0, 'cuda_graph': 1.1}, device='cpu',
                    flags=['cuda_graph'], meta=dict(reward_baseline='cuda_graph'))
    return t, (honest, eh), (graph, eg)


def test_reward_and_definition_agree():
    from cudal1_nb.policy import rewarded_speedup
    _, (_, eh), (_, eg) = _case()
    assert counted_speedup(eg) == rewarded_speedup(eg) == 1.1
    assert counted_speedup(eh) == rewarded_speedup(eh) == 1.5


def test_store_ranks_by_counted_speedup(tmp_path):
    t, (h, eh), (g, eg) = _case()
    with Store(tmp_path/'s.sqlite') as st:
        st.add_task(t); st.add_candidates([h, g]); st.add_evals([eh, eg])
        assert [(c.name, sp) for c, sp in st.exemplars(t.id)] == [('honest', 1.5), ('graph', 1.1)]
        assert [(c.name, counted_speedup(e)) for c, e in st.best_k(t.id)] == [('honest', 1.5), ('graph', 1.1)]


def test_analysis_counts_the_same():
    from cudal1_nb.analysis import earned, speedup_table
    _, (_, eh), (_, eg) = _case()
    assert earned(eg) == 1.1 and earned(eh) == 1.5
    (row,) = [r for r in speedup_table([eg]) if r['level'] == 'all']
    assert row['max'] == 1.1


def test_prompt_orders_and_shows_counted_speedup():
    from cudal1_nb.prompts import contrastive_prompt
    t, hp, gp = _case()
    text = contrastive_prompt(t, [gp, hp], device='cpu').text
    assert re.findall(r'### Variant \d: speedup ([0-9.]+)x', text) == ['1.10', '1.50']   # slowest first


def test_leaderboard_ranks_by_counted_speedup():
    from cudal1_nb.widgets import leaderboard_html
    _, (h, eh), (g, eg) = _case()
    out = leaderboard_html({h.id: h, g.id: g}, {h.id: [eh], g.id: [eg]})
    assert out.index('honest') < out.index('graph') and '1.1×' in out and '3×' not in out
