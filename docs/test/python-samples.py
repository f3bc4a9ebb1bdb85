# Test support: runs Python programs one after another in this one interpreter, so `requests` and
# the rest of the standard start-up are paid once, not once per program. Reads one JSON request a
# line on standard input, `{"script": ..., "env": {...}}`; puts `env` into os.environ, runs the
# script as written, as `__main__` in a namespace of its own (as `python3 -` would), its standard
# output and error captured; answers with one JSON line `{"code": ..., "out": ..., "err": ...}`
# (`code` as the process would have exited: 0, a SystemExit's code, or 1 on an uncaught error).
import contextlib
import io
import json
import os
import sys
import traceback

for line in sys.stdin:
    request = json.loads(line)
    os.environ.update(request["env"])
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(compile(request["script"], "<stdin>", "exec"), {"__name__": "__main__"})
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    sys.stdout.write(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}) + "\n")
    sys.stdout.flush()
