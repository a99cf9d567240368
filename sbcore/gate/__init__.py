"""Gate: what may be said to the agent and the user, and how it is delivered exactly once.

``advice`` (the envelope), ``gate`` (the decision pipeline and the finish-gate
decision), ``framing`` (sanitising, capping, the fixed frame), ``mailbox``
(per-session queue, exactly-once non-blocking claims) and ``history`` (the
decision log). Every module here imports only the standard library, because
the hooks import them; this package file imports nothing, so importing
``sbcore.deliver.mailbox`` costs only what that module needs.
"""
