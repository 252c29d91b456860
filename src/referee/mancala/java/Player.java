/*
 * Player.java: the agent base class, API-compatible with the course framework's Player.
 *
 * Written for the referee (it is compiled with the student's xxxPlayer.java, in the default package, in place of the
 * framework's file). A student's agent extends this class, runs its search in move(GameState) and stores the best
 * move found so far in the field `move` (usually after every iteration of iterative deepening); the host reads it with
 * getMove() while the search runs and plays the latest value when the time is up.
 *
 * Same as the framework: `move` starts at 0 and the class itself never resets it, so a value stays from one turn to
 * the next. The one deviation is in the host (RefereeHost), not here: before each turn it sets `move` to -1, so that
 * a player that never sets `move` during a turn is detected (the framework silently played the stale value); the
 * stale value is reported to the referee as `stale BIN`.
 *
 * This class has no members beyond the framework's: any extra non-private method could clash with a method of the
 * student's subclass and break its compilation.
 */
public abstract class Player {

    /** The current best move: a bin 0-5 of the bottom row of the position given to move(). */
    protected int move;

    private String screenName;

    private int whichPlayer;

    /** Package-private, as in the framework: every agent is in the default package. */
    Player() {
        move = 0;
        screenName = "";
        whichPlayer = 1;
    }

    /**
     * Called when it is this player's turn. The bottom row of {@code context} is this player's side. The search
     * stores its best move so far in {@code move}; the method may run until it is interrupted.
     *
     * @param context the current position (a copy: the player may change it)
     */
    public abstract void move(GameState context);

    /**
     * Initializes the player.
     *
     * @param screenName the name to display
     * @param whichPlayer 1 when this player moves first, 2 otherwise; any other value means 1
     */
    public void initialize(String screenName, int whichPlayer) {
        this.screenName = screenName;
        if (whichPlayer > 2 || whichPlayer < 1) {
            this.whichPlayer = 1;
        } else {
            this.whichPlayer = whichPlayer;
        }
    }

    /** @return the name given to initialize() ("" before) */
    public String getDisplayName() {
        return screenName;
    }

    /** @return the latest move stored by the player */
    public int getMove() {
        return move;
    }
}
