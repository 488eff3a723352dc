"""The execution protocol: the number that stands, in every chapter's key, for this code.

A chapter's key (bookrun.store.key) holds EXECUTION_PROTOCOL, not the worker's code, so
an engine release that leaves the number alone leaves every book's records fresh. Bump
it when a change to this package can change what a snippet prints, draws or binds (how
snippets run, how output, figures and frames are captured, the session's state); a
refactoring that cannot, leaves it. tests/execute/test_protocol_pin.py pins the
package's syntax-tree digest to the number, so the choice is made on purpose.
"""
EXECUTION_PROTOCOL = 2
