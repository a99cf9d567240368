"""The files processes share, on the ground floor: their names, shapes and versions.

The hooks, the worker and the ``second-brain`` commands are separate processes
that meet only through files under the data directory. A file's shape belongs
to neither side, so it lives here, below both: a writer high in the house
(``sbcore.config`` writing the hot snapshot) and a reader on the hook path
(``sbcore.hooks``) import the same definition without one importing the other.

Standard library only, and cheap to import: the hooks import this package.
"""
