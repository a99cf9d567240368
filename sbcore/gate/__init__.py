"""Gate: what a detector's answer becomes (advice for the agent, a note for the user, or nothing).

``gate`` (the pipeline: an answer in, a decision recorded), ``rules`` (the ordered rules, each a function
of the case), ``fold`` (the memory, a fold over the history files), ``settings`` (what it reads from the
configuration), ``finish`` (the finish-gate decision, all the Stop hook needs), ``advice`` (the envelope),
``answer`` (what a detector's answer brings), ``sanitize``, ``similarity``, ``history`` (the decision log
and its reason codes), ``uptake`` and ``calibration`` (did advice land). Delivery is
:mod:`sbcore.deliver`'s. Every module here imports only the standard library, because the hooks import
some; this package file imports nothing, so importing ``sbcore.gate.finish`` costs only what it needs.
"""
