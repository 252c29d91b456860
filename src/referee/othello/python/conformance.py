"""The referee's conformance helper: imports a student's Othello agent as a module and calls its functions.

Usage: python3 conformance.py STUDENT_FILE. Requests come one JSON object a line on stdin, e.g.
{"id": 3, "call": "select_move_minimax", "board": [[0, 0, 0, 0], ...], "color": 1, "limit": 3}, and each gets
one line back on the real stdout: {"id": 3, "ok": RESULT} or {"id": 3, "error": "TYPE: message (where)"}.

The student's code never sees the protocol: its prints (sys.stdout and file descriptor 1) go to stderr and its
stdin is empty, so an unguarded run_ai() at import ends with EOFError instead of waiting. The module is imported
under its own name, so its `if __name__ == "__main__":` block does not run. Written for the referee project.
"""

import importlib.util
import inspect
import json
import math
import numbers
import os
import sys
import traceback

# What each function is given, by position; "limit" is left out for the older signature without it.
ROLES = {
    "compute_utility": ("board", "color"),
    "select_move_minimax": ("board", "color", "limit"),
    "select_move_alphabeta": ("board", "color", "limit"),
    "minimax_max_node": ("board", "color", "limit"),
    "minimax_min_node": ("board", "color", "limit"),
    "alphabeta_max_node": ("board", "color", "alpha", "beta", "limit"),
    "alphabeta_min_node": ("board", "color", "alpha", "beta", "limit"),
}

# Options of the later course, passed as 0, or as 1 for the ones a request lists under "switches" (each is asked
# alone, so a wrong answer names the switch).
SWITCHES = ("caching", "ordering")

# The node functions whose calls are counted (through the module's globals, so recursive calls count too).
NODES = ("minimax_max_node", "minimax_min_node", "alphabeta_max_node", "alphabeta_min_node")

# Node-function calls since the last request began.
CALLS = [0]


def take_stdio():
    """Keeps the real stdin/stdout for the protocol and gives the student an empty stdin and stderr as stdout."""
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, "r")
    sys.stdout = sys.stderr
    return proto_in, proto_out


def describe(exc):
    """One line: the exception's type and message, and the last place in the student's code that raised it."""
    text = "%s: %s" % (type(exc).__name__, exc)
    here = os.path.abspath(__file__)
    frames = [
        f for f in traceback.extract_tb(exc.__traceback__)
        if not f.filename.startswith("<") and os.path.abspath(f.filename) != here
    ]
    if frames:
        last = frames[-1]
        text += " (%s line %s, in %s)" % (os.path.basename(last.filename), last.lineno, last.name)
    return text.replace("\n", " ")


def plain(value):
    """The value as JSON can carry it: tuples as lists, infinities and NaN as strings, anything else as repr."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    try:
        return float(value) if isinstance(value, numbers.Real) else repr(value)
    except Exception:  # a broken __float__ or __repr__ of a student's class
        return "<unprintable %s>" % type(value).__name__


def form_of(name, function):
    """How the function is called: ("with-limit" | "without-limit" | "unsupported", its signature as text)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return "unsupported", "(signature unknown)"
    roles = ROLES[name]
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    core = [p for p in signature.parameters.values() if p.kind in kinds and p.name not in SWITCHES]
    required = [p for p in core if p.default is inspect.Parameter.empty]
    text = str(signature)
    if any(p.name == "level" for p in core):
        return "unsupported", text
    if len(required) <= len(roles) <= len(core):
        return "with-limit" if "limit" in roles else "without-limit", text
    if "limit" in roles and len(required) <= len(roles) - 1 <= len(core):
        return "without-limit", text
    return "unsupported", text


def load(path):
    """Imports the student's file under its own name; returns the module and the import's exception, if any."""
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    problem = None
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # SystemExit and EOFError from a run_ai() at import included
        problem = describe(exc)
    return name, module, problem


def switch_names(function):
    """The switches (caching, ordering) the function takes by name."""
    try:
        names = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return []
    return [s for s in SWITCHES if s in names and names[s].kind != inspect.Parameter.POSITIONAL_ONLY]


def count_nodes(module):
    """Replaces the module's node functions by counting wrappers (signatures kept through __wrapped__); returns
    the originals, for restore_nodes."""
    originals = {}
    for name in NODES:
        original = getattr(module, name, None)
        if not callable(original):
            continue

        def counted(*args, __original=original, **kwargs):
            CALLS[0] += 1
            return __original(*args, **kwargs)

        counted.__wrapped__ = original
        try:
            setattr(module, name, counted)
            originals[name] = original
        except Exception:  # a module that forbids it is simply not counted
            pass
    return originals


def restore_nodes(module, originals):
    """Puts back what count_nodes replaced."""
    for name, original in originals.items():
        setattr(module, name, original)


def answer(module, forms, request):
    """The student's answer to one request, as the reply object (without its id)."""
    name = request.get("call")
    if name not in forms or forms[name][0] not in ("with-limit", "without-limit"):
        return {"error": "HelperError: %s cannot be called" % name}
    function = getattr(module, name)
    board = tuple(tuple(row) for row in request["board"])
    values = {
        "board": board,
        "color": request["color"],
        "alpha": float(request.get("alpha", "-inf")),
        "beta": float(request.get("beta", "inf")),
        "limit": request.get("limit"),
    }
    with_limit = forms[name][0] == "with-limit" or "limit" not in ROLES[name]
    args = [values[role] for role in ROLES[name] if with_limit or role != "limit"]
    on = request.get("switches") or []
    CALLS[0] = 0
    # Counting costs a frame per node call, so only the calls that ask for it are counted.
    originals = count_nodes(module) if request.get("count") else {}
    try:
        result = function(*args, **{s: int(s in on) for s in switch_names(function)})
        return {"ok": plain(result), "calls": CALLS[0] if request.get("count") else None}
    except BaseException as exc:
        return {"error": describe(exc)}
    finally:
        restore_nodes(module, originals)


def main():
    proto_in, proto_out = take_stdio()

    def send(obj):
        proto_out.write(json.dumps(obj) + "\n")
        proto_out.flush()

    path = os.path.abspath(sys.argv[1])
    send({"started": True, "python": sys.version.split()[0]})
    sys.path[0] = os.path.dirname(path)
    sys.argv = [path]
    name, module, problem = load(path)
    forms = {}
    report = {}
    for function_name in ROLES:
        function = getattr(module, function_name, None)
        if function is None:
            report[function_name] = {"form": "missing", "signature": None}
        elif not callable(function):
            kind = type(function).__name__
            report[function_name] = {"form": "missing", "signature": "not a function but a value of type %s" % kind}
        else:
            forms[function_name] = form_of(function_name, function)
            report[function_name] = {
                "form": forms[function_name][0],
                "signature": forms[function_name][1],
                "switches": switch_names(function),
            }
    send({"module": name, "import_error": problem, "functions": report})
    for line in proto_in:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("fresh"):
            # Asked of a module imported anew, so nothing an earlier call left behind (a cache) can matter.
            name, module, _ = load(path)
        reply = answer(module, forms, request)
        reply["id"] = request.get("id")
        send(reply)


if __name__ == "__main__":
    main()
