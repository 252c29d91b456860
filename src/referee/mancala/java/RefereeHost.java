/*
 * RefereeHost.java: runs a student's unchanged Mancala agent (a subclass of Player) as a separate process that speaks
 * the referee's agent protocol (docs/agent-protocol.md) on stdin/stdout.
 *
 *     javac -encoding UTF-8 -d DIR GameState.java Player.java RefereeHost.java xxxPlayer.java [helpers.java]
 *     java -XX:ActiveProcessorCount=1 -XX:+DisplayVMOutputToStderr -XX:+UseCountedLoopSafepoints \
 *          -XX:LoopStripMiningIter=1000 -cp DIR RefereeHost xxxPlayer
 *
 * What it does, turn by turn, mirrors the course framework (a new thread calls player.move(copy of the board); the
 * latest value of the field `move` is the answer), with these differences:
 * - The protocol uses the real stdout only; System.out is redirected to System.err before any student code runs, so
 *   student prints end up in the stderr tail the referee keeps. System.in is replaced by an empty stream.
 * - Before each turn the host sets `move` to -1 (the one deviation from the framework, which kept the stale value):
 *   a player that never sets `move` during a turn is then reported as `stale B`, B being the value the field held
 *   before the reset (at `stop`, or before `done` when move() returned without setting it). A player that stores -1
 *   itself looks like one that stored nothing. At the end of a turn in which the player never set it, the field gets
 *   its old value back, as if it had never been reset.
 * - Every ~2 ms the host reads the player's move (getMove() if the player overrides it, else the field itself: the
 *   same value without running student code) and sends `move B` whenever the value changed and is not -1, exactly as
 *   the player holds it, legal or not: the referee adjudicates.
 * - An exception thrown by move() is printed to stderr with its stack trace and reported as
 *   `info exception CLASS: MESSAGE` (the framework swallowed it silently).
 * - When the time is up (`stop`) and move() is still running, the host saves the field `move` in the file
 *   .referee-host-move of the working directory, answers `done restart` and halts the JVM: a runaway search can
 *   never run into a later turn (the framework relied on Thread.stop(), which throws on Java 20 and later). The
 *   referee starts a fresh host for the next turn, which restores `move` from that file (and deletes it), so the
 *   field keeps its value across turns as in the framework. Each host therefore needs a working directory of its own.
 * - A `stop` that arrives after the host has sent `done` for the turn (the two crossed) is ignored: the turn is over.
 *   Unknown or malformed lines are ignored and logged to stderr.
 *
 * Exit status: 0 on `quit`, end of input, or `done restart`; 2 for a bad command line or `referee` line; 3 when the
 * player class cannot be loaded, constructed or initialized (one clear line on stderr says why).
 *
 * Only java.base is used. Everything the host needs is nested in this class, so that no top-level class name can clash
 * with a student's helper class in the default package. The host avoids lambdas and `+` on strings (both are linked
 * through invokedynamic, which costs tens of milliseconds the first time in a fresh JVM, and the JVM is fresh at
 * most turns), and java.nio.file (more classes to load).
 *
 * Recommended JVM flags: -XX:ActiveProcessorCount=1 (one core's worth of GC and JIT threads),
 * -XX:+DisplayVMOutputToStderr (JVM warnings must not reach the protocol stream), and
 * -XX:+UseCountedLoopSafepoints -XX:LoopStripMiningIter=1000: with the serial collector, which the JVM picks for one
 * processor, counted loops have no safepoint polls, so a student loop like `for (int i = 0; i < 2_000_000_000; i++)`
 * blocks every other thread at the next safepoint (measured: `done restart` 3-4 s late on Java 17, the exit after
 * halt 2-9 s late on 17 and 25); with these flags both take a few milliseconds.
 */
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class RefereeHost {

    /** The file, in the working directory, that carries `move` from a halted host to the next one. */
    static final String MOVE_FILE = ".referee-host-move";

    /** The value `move` gets before each turn: "not set this turn". */
    static final int NO_MOVE = -1;

    /** How often the host reads the move while move() runs. */
    static final long POLL_MS = 2;

    static final int EXIT_USAGE = 2;
    static final int EXIT_LOAD = 3;

    /** The real stdout, for protocol lines only. */
    private static OutputStream protocol;

    private static final Object OUT_LOCK = new Object();

    /** The student's player (written by the main thread before any other host thread starts). */
    private static volatile Player player;

    private static String className;

    /** The current or last turn. */
    private static volatile Turn current;

    private static int turnCount;

    /** One call of player.move(); its fields are guarded by the Turn's monitor. */
    private static final class Turn {
        /** The value of `move` before this turn's reset. */
        final int stale;
        /** The last value sent as `move B` this turn, NO_MOVE when none. */
        int reported = NO_MOVE;
        /** Whether `done` (or `done restart`) has been sent for this turn. */
        boolean finished;
        /** What move() threw, if anything (written by the player's thread before it ends). */
        volatile Throwable error;
        Thread thread;

        Turn(int stale) {
            this.stale = stale;
        }
    }

    private RefereeHost() {
    }

    public static void main(String[] args) {
        // Before anything else: keep the real stdout for the protocol and give everyone else stderr.
        protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        InputStream stdin = System.in;
        System.setIn(new ByteArrayInputStream(new byte[0]));

        if (args.length != 1 || args[0].isEmpty()) {
            System.err.println("referee-host: usage: java -cp DIR RefereeHost <PlayerClassName>");
            exit(EXIT_USAGE);
        }
        className = args[0];

        BufferedReader reader = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        try {
            String line;
            while ((line = reader.readLine()) != null) {
                handle(line);
            }
        } catch (IOException e) {
            log(cat("reading stdin failed: ", e));
        }
        halt();
    }

    private static void handle(String raw) {
        String line = raw.strip();
        if (line.isEmpty()) {
            return;
        }
        String[] words = words(line);
        switch (words[0]) {
            case "referee":
                start(words, line);
                break;
            case "go":
                go(words, line);
                break;
            case "stop":
                stop();
                break;
            case "quit":
                halt();
                break;
            default:
                log(cat("ignored unknown line: ", printable(line, 200)));
        }
    }

    // ---- start-up ---------------------------------------------------------------------------------------------------

    private static void start(String[] words, String line) {
        if (player != null) {
            log(cat("ignored a second referee line: ", printable(line, 200)));
            return;
        }
        int seat;
        try {
            if (words.length != 5 || !words[1].equals("1") || !words[2].equals("mancala")) {
                throw new IllegalArgumentException();
            }
            Integer.parseInt(words[3]); // stones per bin: the host needs only the boards sent with `go`
            seat = Integer.parseInt(words[4]);
        } catch (RuntimeException e) {
            System.err.println(cat("referee-host: expected `referee 1 mancala STONES SEAT`, got: ", printable(line, 200)));
            exit(EXIT_USAGE);
            return;
        }

        Player loaded = load(className);
        try {
            getMoveOverridden = loaded.getClass().getMethod("getMove").getDeclaringClass() != Player.class;
        } catch (NoSuchMethodException | RuntimeException e) {
            getMoveOverridden = true;
        }
        try {
            loaded.initialize(className, seat);
        } catch (Throwable e) {
            printStackTrace(e);
            fail(cat(className, ".initialize(\"", className, "\", ", seat, ") threw ", describe(e)));
        }
        restoreMove(loaded);
        player = loaded;

        String name;
        try {
            name = printable(loaded.getDisplayName(), 100);
        } catch (Throwable e) {
            log(cat("getDisplayName() threw ", describe(e)));
            name = "";
        }
        send(cat("name ", name.isEmpty() ? className : name));
    }

    /** Loads, checks and constructs the player class; exits with status 3 and one clear line on any failure. */
    private static Player load(String name) {
        Class<?> type;
        try {
            type = Class.forName(name, false, RefereeHost.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            fail(cat("player class ", name, " not found (is the file named ", name, ".java, with no package line?)"));
            return null;
        } catch (LinkageError e) {
            printStackTrace(e);
            fail(cat("player class ", name, " cannot be loaded: ", describe(e)));
            return null;
        }
        if (!Player.class.isAssignableFrom(type)) {
            fail(cat("class ", name, " does not extend Player"));
        }
        if (Modifier.isAbstract(type.getModifiers()) || type.isInterface()) {
            fail(cat("class ", name, " is abstract"));
        }
        Constructor<?> constructor;
        try {
            constructor = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            fail(cat("class ", name, " has no constructor without arguments"));
            return null;
        } catch (Throwable e) {
            printStackTrace(e);
            fail(cat("player class ", name, " cannot be loaded: ", describe(e)));
            return null;
        }
        try {
            return (Player) constructor.newInstance();
        } catch (InvocationTargetException e) {
            printStackTrace(e.getCause());
            fail(cat("the constructor of ", name, " threw ", describe(e.getCause())));
        } catch (IllegalAccessException e) {
            fail(cat("the constructor of ", name, " is not accessible (make it public)"));
        } catch (Throwable e) {
            // ExceptionInInitializerError (a static initializer threw), NoClassDefFoundError, ...
            printStackTrace(e);
            fail(cat("player class ", name, " cannot be constructed: ", describe(e)));
        }
        return null;
    }

    private static void fail(String message) {
        System.err.println(cat("referee-host: ", message));
        exit(EXIT_LOAD);
    }

    /**
     * Ends the JVM at once (no shutdown hooks: a student's could hang). System.err is not flushed: println has
     * flushed it already, and a flush could block behind a student thread stuck writing to a full stderr pipe.
     */
    private static void exit(int status) {
        Runtime.getRuntime().halt(status);
    }

    /** A host restarted after `done restart` gives `move` the value the halted host saved. */
    private static void restoreMove(Player target) {
        File file = new File(MOVE_FILE);
        if (!file.exists()) {
            return;
        }
        try (FileInputStream in = new FileInputStream(file)) {
            target.move = Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
        } catch (IOException | RuntimeException e) {
            log(cat("cannot restore move from ", MOVE_FILE, ": ", e));
        }
        if (!file.delete()) {
            log(cat("cannot delete ", MOVE_FILE));
        }
    }

    // ---- turns ------------------------------------------------------------------------------------------------------

    private static void go(String[] words, String line) {
        Player p = player;
        if (p == null) {
            log("ignored go before the referee line");
            return;
        }
        Turn last = current;
        if (last != null) {
            synchronized (last) {
                if (!last.finished) {
                    log("ignored go while the previous turn is still running");
                    return;
                }
            }
        }
        int[] pits = new int[14];
        try {
            if (words.length != 16) {
                throw new IllegalArgumentException();
            }
            Long.parseLong(words[1]); // the milliseconds: the referee keeps the time
            for (int i = 0; i < 14; i++) {
                pits[i] = Integer.parseInt(words[i + 2]);
            }
        } catch (RuntimeException e) {
            log(cat("ignored malformed line: ", printable(line, 200)));
            return;
        }

        Turn turn = new Turn(p.move);
        p.move = NO_MOVE;
        turnCount++;
        turn.thread = new Thread(new MoveCall(p, new GameState(pits), turn), cat("player-move-", turnCount));
        turn.thread.setDaemon(true);
        Thread watcher = new Thread(new Watcher(turn), cat("referee-host-watch-", turnCount));
        watcher.setDaemon(true);
        current = turn;
        turn.thread.start();
        watcher.start();
    }

    /** The player's thread: one call of move(). */
    private static final class MoveCall implements Runnable {
        private final Player p;
        private final GameState board;
        private final Turn turn;

        MoveCall(Player p, GameState board, Turn turn) {
            this.p = p;
            this.board = board;
            this.turn = turn;
        }

        @Override
        public void run() {
            try {
                p.move(board);
            } catch (Throwable e) {
                turn.error = e;
                System.err.println("referee-host: move() threw an exception:");
                printStackTrace(e);
            }
        }
    }

    /** The watcher's thread. */
    private static final class Watcher implements Runnable {
        private final Turn turn;

        Watcher(Turn turn) {
            this.turn = turn;
        }

        @Override
        public void run() {
            watch(turn);
        }
    }

    /** Sends every new value of `move` while move() runs, and `done` when it returns. */
    private static void watch(Turn turn) {
        while (true) {
            try {
                turn.thread.join(POLL_MS);
            } catch (InterruptedException e) {
                // keep watching
            }
            boolean alive = turn.thread.isAlive(); // before reading `move`, so that the last value is seen
            int value = readMove(); // outside the monitor: a student's getMove() could block
            synchronized (turn) {
                if (turn.finished) {
                    return;
                }
                report(turn, value);
                if (!alive) {
                    finish(turn);
                    return;
                }
            }
        }
    }

    private static void stop() {
        Turn turn = current;
        if (turn == null) {
            log("ignored stop outside a turn");
            return;
        }
        synchronized (turn) {
            if (turn.finished) {
                log("ignored stop: this turn is already done");
                return;
            }
            boolean alive = turn.thread.isAlive();
            report(turn, readMoveQuickly());
            if (!alive) {
                finish(turn);
                return;
            }
            if (turn.reported == NO_MOVE) {
                send(cat("stale ", turn.stale));
            }
            // move() is still running: save `move` for the next host and end this JVM, the only sure way to stop it.
            int now = player.move;
            int keep = now != NO_MOVE ? now : turn.reported != NO_MOVE ? turn.reported : turn.stale;
            try (FileOutputStream out = new FileOutputStream(MOVE_FILE)) {
                out.write(cat(keep, "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                log(cat("cannot save move to ", MOVE_FILE, ": ", e));
            }
            turn.finished = true;
            send("done restart");
            halt();
        }
    }

    /** Sends `move B` when {@code value} is new and not -1. Call with the turn's monitor held. */
    private static void report(Turn turn, int value) {
        if (value != NO_MOVE && value != turn.reported) {
            turn.reported = value;
            send(cat("move ", value));
        }
    }

    /** Ends a turn whose move() has returned or thrown. Call with the turn's monitor held. */
    private static void finish(Turn turn) {
        Player p = player;
        if (turn.reported == NO_MOVE) {
            send(cat("stale ", turn.stale));
        }
        Throwable error = turn.error;
        if (error != null) {
            send(cat("info exception ", describe(error)));
        }
        if (p.move == NO_MOVE) {
            // The framework never resets `move`: give it back the value it would have kept.
            p.move = turn.reported != NO_MOVE ? turn.reported : turn.stale;
        }
        turn.finished = true;
        send("done");
    }

    /** How long `stop` waits for a student's getMove() before it takes the field instead. */
    static final long GET_MOVE_WAIT_MS = 50;

    /**
     * readMove() for `stop`, which must answer at once: a student's getMove() that does not return within
     * GET_MOVE_WAIT_MS (say it is synchronized, like a move() that holds the monitor) is abandoned for the field.
     */
    private static int readMoveQuickly() {
        if (!getMoveOverridden) {
            return player.move;
        }
        MoveReader reader = new MoveReader();
        Thread thread = new Thread(reader, "referee-host-getmove");
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join(GET_MOVE_WAIT_MS);
        } catch (InterruptedException e) {
            // fall through
        }
        if (reader.done) {
            return reader.value;
        }
        log("getMove() did not return in time at stop; reading the field move instead");
        return player.move;
    }

    /** Calls readMove() on a thread of its own. */
    private static final class MoveReader implements Runnable {
        volatile int value;
        volatile boolean done;

        @Override
        public void run() {
            value = readMove();
            done = true;
        }
    }

    /** Whether the player's class overrides getMove() (then the host calls it, as the framework did). */
    private static volatile boolean getMoveOverridden;

    private static volatile boolean getMoveFailed;

    /**
     * The player's current move: getMove() when the player overrides it, else the field `move` itself (the same value,
     * without calling student code). Reading a plain field from another thread is racy by design, as in the framework;
     * the loops that call this also call Thread.join, so the read is never hoisted out of them.
     */
    private static int readMove() {
        Player p = player;
        if (!getMoveOverridden) {
            return p.move;
        }
        try {
            return p.getMove();
        } catch (Throwable e) {
            if (!getMoveFailed) {
                getMoveFailed = true;
                log(cat("getMove() threw ", describe(e), "; reading the field move instead"));
            }
            return p.move;
        }
    }

    // ---- output -----------------------------------------------------------------------------------------------------

    /** Writes one protocol line to the real stdout and flushes it. */
    private static void send(String line) {
        byte[] bytes = cat(line, "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (OUT_LOCK) {
            try {
                protocol.write(bytes);
                protocol.flush();
            } catch (IOException e) {
                // The referee is gone.
                halt();
            }
        }
    }

    private static void log(String message) {
        System.err.println(cat("referee-host: ", message));
    }

    private static void halt() {
        exit(0);
    }

    /** `CLASS: MESSAGE` (or just CLASS), on one line, at most 500 characters; never throws. */
    private static String describe(Throwable e) {
        if (e == null) {
            return "null";
        }
        String text = e.getClass().getName();
        try {
            String message = e.getMessage();
            if (message != null) {
                text = cat(text, ": ", message);
            }
        } catch (Throwable ignored) {
            // a student's exception whose getMessage() throws
        }
        return printable(text, 500);
    }

    private static void printStackTrace(Throwable e) {
        if (e == null) {
            return;
        }
        try {
            e.printStackTrace(System.err);
        } catch (Throwable ignored) {
            System.err.println(describe(e));
        }
    }

    /** The parts as one string (instead of `+`, see the class comment). */
    private static String cat(Object... parts) {
        StringBuilder out = new StringBuilder();
        for (Object part : parts) {
            out.append(part);
        }
        return out.toString();
    }

    /** The words of a line, split at runs of white space (the line is already stripped). */
    private static String[] words(String line) {
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= line.length(); i++) {
            boolean space = i == line.length() || Character.isWhitespace(line.charAt(i));
            if (space && start >= 0) {
                words.add(line.substring(start, i));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
        }
        return words.toArray(new String[0]);
    }

    /** {@code text} with every control character replaced by a space, stripped, and cut to {@code max} chars. */
    private static String printable(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max));
        for (int i = 0; i < text.length() && out.length() < max; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) || c == '\u2028' || c == '\u2029' ? ' ' : c);
        }
        return out.toString().strip();
    }
}
