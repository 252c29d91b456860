"""The referee's conformance helper: imports a student's Othello agent as a module and calls its functions.

Usage: python3 conformance.py STUDENT_FILE. Requests come one JSON object a line on stdin, e.g.
{"id": 3, "call": "select_move_minimax", "board": [[0, 0, 0, 0], ...], "color": 1, "limit": 3}, and each gets
one line back on the real stdout: {"id": 3, "ok": RESULT} or {"id": 3, "error": "TYPE: message (where)"}.

The student's code never sees the protocol: its prints (sys.stdout and file descriptor 1) go to stderr and its
stdin is empty, so an unguarded run_ai() at import ends with EOFError instead of waiting. The module is imported
under its own name, so its `if __name__ == "__main__":` block does not run.

Nothing here knows a right answer: the grader compares the answers, and the reference's stand-ins of an isolated
call ask the grader (see "Isolation" below), so a module that finds this file, its functions or its frames finds
no reference to lean on. Written for the referee project.
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


# ---- Isolation: one student function over the reference's others ----------------------------------------------
#
# A request with "isolate" calls the student's function with every other template function replaced by a stand-in
# for the reference (also under any other global name the module binds it to), and the reference's own calls of
# the function under test go back to the student's: the function is checked on its own at every level of the
# search. The calls it makes itself (to the stand-ins, or to itself) are logged with what they returned.
#
# The reference is not in this process: a stand-in asks the grader on the protocol channel ({"ref": ...}), and the
# grader computes the answer with its own reference, asking back ({"child": ...}) whenever the reference calls the
# function under test. The grader answers only during an isolated call, and never for the function under test.
# Values go both ways as handles into OBJECTS, so the student's functions get back exactly the objects they gave.

INF = float("inf")

# Most logged calls per request.
LOG_CAP = 400


class Isolation:
    """The state of one isolated call."""

    def __init__(self):
        self.tested = None
        self.original = None
        # Whether the call is a proof's (a request with "replaced"): see stand_in.
        self.proof = False
        # The student's template functions as the module had them, by name.
        self.originals = {}
        self.forms = {}
        self.on = []
        self.log = []
        self.depth = 0
        # Node functions whose student version returned the value alone, or (value, move): the reference's stand-in
        # then answers the same way, so the student's callers read it as they read their own.
        self.bare = set()
        self.value_first = set()
        # The request being answered, and the objects handed to the grader by number.
        self.id = None
        self.objects = []


ISO = Isolation()

# The protocol channel: "send" writes one object a line, "read" returns the next line ("" at the end).
PROTO = {}


def read_args(name, args, kwargs):
    """The board, color, window and limit of a call of `name` as the student's code makes it: by position, and
    by keyword under the template's names or the names the student's own `name` gives its parameters."""
    form = ISO.forms.get(name, ("with-limit", ""))[0]
    roles = [r for r in ROLES[name] if form == "with-limit" or r != "limit"]
    values = {"alpha": -INF, "beta": INF, "limit": None}
    values.update(zip(roles, args))
    names = dict((r, r) for r in roles)
    original = ISO.originals.get(name)
    if original is not None:
        try:
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            params = [p.name for p in inspect.signature(original).parameters.values()
                      if p.kind in kinds and p.name not in SWITCHES]
            names.update(zip(params, roles))
        except (TypeError, ValueError):
            pass
    values.update((names[k], v) for k, v in kwargs.items() if k in names)
    return values


def value_of(result, name=None):
    """The value of a node's answer: the second of (move, value) (the first where the student's `name` answers
    (value, move)), or the answer itself."""
    if isinstance(result, (tuple, list)) and len(result) == 2:
        return result[0] if name in ISO.value_first else result[1]
    return result


def note_shape(name, result):
    """Remembers how the student's node function `name` shapes its answer."""
    if name not in NODES:
        return
    if not isinstance(result, (tuple, list)):
        ISO.bare.add(name)
    elif len(result) == 2 and isinstance(result[0], numbers.Real) and not isinstance(result[1], numbers.Real):
        ISO.value_first.add(name)


def student_call(function, name, board, color, alpha, beta, limit):
    """Calls the student's `function` (template name `name`) the way its own signature takes it."""
    form = ISO.forms.get(name, ("with-limit", ""))[0]
    values = {"board": board, "color": color, "alpha": alpha, "beta": beta, "limit": limit}
    args = [values[r] for r in ROLES[name] if form == "with-limit" or r != "limit"]
    return function(*args, **{s: int(s in ISO.on) for s in switch_names(function)})


def handle(value):
    """`value` as the grader sees it: its number in OBJECTS, its number value (if it is a real number) and type."""
    ISO.objects.append(value)
    number = None
    if isinstance(value, numbers.Real):
        try:
            number = plain(float(value))
        except Exception:  # a broken __float__ of a student's class
            number = None
    return {"h": len(ISO.objects) - 1, "n": number, "t": type(value).__name__}


def unhandle(given):
    """A value the grader sends: one of OBJECTS, or a number of its own."""
    if "h" in given:
        return ISO.objects[given["h"]]
    if "i" in given:
        return given["i"]
    return float(given["f"])


def oracle(name, board, color, alpha, beta, limit):
    """The reference's (move, value) for `name` on this board, from the grader; the function under test answers
    the grader's questions about its own calls meanwhile."""
    PROTO["send"]({"id": ISO.id, "ref": name, "board": plain(board), "color": handle(color),
                   "alpha": handle(alpha), "beta": handle(beta), "limit": None if limit is None else handle(limit)})
    while True:
        line = PROTO["read"]()
        if not line:
            raise EOFError("the grader closed the channel")
        message = json.loads(line)
        if "child" in message:
            child = message["child"]
            try:
                result = student_call(ISO.original, child, tuple(tuple(row) for row in message["board"]),
                                      unhandle(message["color"]), unhandle(message["alpha"]),
                                      unhandle(message["beta"]),
                                      None if message["limit"] is None else unhandle(message["limit"]))
                reply = {"value": handle(value_of(result, child))}
            except BaseException as exc:
                ISO.objects.append(exc)
                reply = {"raised": len(ISO.objects) - 1}
            reply["id"] = ISO.id
            PROTO["send"](reply)
        elif "answer" in message:
            move, value = message["answer"]
            return (None if move is None else tuple(move)), unhandle(value)
        elif "reraise" in message:
            raise ISO.objects[message["reraise"]]
        else:
            kinds = {"TypeError": TypeError, "ValueError": ValueError, "RecursionError": RecursionError}
            raise kinds.get(message.get("raise"), RuntimeError)(message.get("message", "the grader refused"))


def reference(name, board, color, alpha, beta, limit):
    """The stand-in's answer: (move, value) for a node, (move, None) for a select, (None, utility)."""
    if name.startswith("select_move"):
        node = "minimax_max_node" if name == "select_move_minimax" else "alphabeta_max_node"
        if node == ISO.tested:
            return student_call(ISO.original, node, board, color, -INF, INF, limit)[0], None
        return oracle(node, board, color, -INF, INF, limit)[0], None
    return oracle(name, board, color, alpha, beta, limit)


def logged(name, values, result, own):
    """Logs a call the function under test made itself (not one made deeper, by the reference)."""
    if len(ISO.log) >= LOG_CAP:
        return
    entry = {"f": name, "board": [list(row) for row in values["board"]], "color": values["color"]}
    for key in ("alpha", "beta", "limit"):
        entry[key] = plain(values[key])
    entry["ret"] = plain(result)
    if own:
        entry["own"] = True
    ISO.log.append(entry)


def stand_in(name):
    """The reference's `name`, shaped as the student's version answers (a bare value if it did)."""

    def ref(*args, **kwargs):
        values = read_args(name, args, kwargs)
        original = ISO.originals.get(name)
        limit = values["limit"]
        if ISO.proof and original is not None and isinstance(limit, numbers.Real) and limit < 0:
            # A limit below 0 is outside what the template defines: in a proof the module's own function answers
            # it, so only the function replaced differs from the module.
            return original(*args, **kwargs)
        direct = ISO.depth == 0
        ISO.depth += 1
        try:
            move, value = reference(name, values["board"], values["color"], values["alpha"], values["beta"],
                                    values["limit"])
        finally:
            ISO.depth -= 1
        if name == "compute_utility":
            result = value
        elif name.startswith("select_move"):
            result = move
        elif name in ISO.bare:
            result = value
        elif name in ISO.value_first:
            result = (value, move)
        else:
            result = (move, value)
        if direct:
            logged(name, values, result, False)
        return result

    return ref


def own_calls(name, original):
    """The function under test as its own recursive calls reach it: logged when made directly."""

    def own(*args, **kwargs):
        direct = ISO.depth == 0
        ISO.depth += 1
        try:
            result = original(*args, **kwargs)
        finally:
            ISO.depth -= 1
        if direct:
            logged(name, read_args(name, args, kwargs), result, True)
        return result

    own.__wrapped__ = original
    return own


def defined_in(function, module):
    """Whether `function` (or what it wraps, e.g. under functools.lru_cache) is the module's own code, whose calls
    of the other template functions go through the module's globals."""
    for _ in range(10):
        if getattr(function, "__globals__", None) is module.__dict__:
            return True
        function = getattr(function, "__wrapped__", None)
        if function is None:
            return False
    return False


def isolated(module, name, call):
    """Runs `call()` (the student's `name`) with the module's other template functions replaced by the reference,
    under every global name that holds them; returns what it returned. The module is put back afterwards."""
    scope = module.__dict__
    originals = {n: scope.get(n) for n in ROLES}
    replaced = {}
    for key, value in list(scope.items()):
        for n, original in originals.items():
            if original is not None and value is original and callable(value):
                replaced[key] = value
                scope[key] = own_calls(n, original) if n == name else stand_in(n)
    for n in ROLES:
        if n not in replaced and n != name:
            replaced[n] = scope.get(n, MISSING)
            scope[n] = stand_in(n)
    ISO.tested, ISO.original, ISO.log, ISO.depth = name, originals[name], [], 0
    ISO.originals = {n: f for n, f in originals.items() if callable(f)}
    try:
        return call()
    finally:
        for key, value in replaced.items():
            if value is MISSING:
                scope.pop(key, None)
            else:
                scope[key] = value


# Marks a global the module did not have.
MISSING = object()


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
    ISO.forms, ISO.on, ISO.id, ISO.objects = forms, on, request.get("id"), []

    def call():
        return function(*args, **{s: int(s in on) for s in switch_names(function)})

    # With "replaced", the reference's `name` is asked instead, over the student's `replaced` alone (the proof
    # that `replaced` on its own accounts for `name`'s answers).
    tested = request.get("replaced") or name
    ISO.proof = bool(request.get("replaced"))
    if tested != name:
        if tested not in forms:
            return {"error": "HelperError: %s cannot be called" % tested}
        reference_call = stand_in(name)

        def call():
            return reference_call(*args)

    try:
        if request.get("isolate"):
            if not defined_in(getattr(module, tested), module):
                return {"error": "HelperError: %s is not defined in the module, so it cannot be isolated" % tested}
            result = isolated(module, tested, call)
            return {"ok": plain(result), "log": ISO.log}
        result = call()
        note_shape(name, result)
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

    PROTO["send"], PROTO["read"] = send, proto_in.readline

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
    for line in iter(proto_in.readline, ""):
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
