/*
 * GameState.java: the Mancala board, API-compatible with the course framework's GameState.
 *
 * Written for the referee (it is compiled with the student's xxxPlayer.java, in the default package, in place of the
 * framework's file). Every public member of the framework's class is here with the same behaviour (the referee's
 * Mancala rules in src/game/mancala are the same rules); the differences are listed below.
 *
 * The board is an array of 14 counts, always from the point of view of the player to move:
 *
 *     -----------------------------------------
 *     |    | 12 | 11 | 10 |  9 |  8 |  7 |    |
 *     | 13 |-----------------------------|  6 |
 *     |    |  0 |  1 |  2 |  3 |  4 |  5 |    |
 *     -----------------------------------------
 *
 * 0-5 are the mover's bins (bottom row, left to right), 6 its mancala, 7-12 the opponent's bins, 13 the opponent's
 * mancala. In matrix form bin i is [i / 7][i % 7].
 *
 * Differences from the framework:
 * - illegalMove(bin) returns true for every bin outside 0-12 (and for 6) instead of throwing
 *   ArrayIndexOutOfBoundsException for bins < 0 or > 13 (the original read state[bin] before checking the range).
 * Everything else, including the behaviour of applyMove on an illegal bin (it is not checked, exactly as in the
 * original: an out-of-range bin throws ArrayIndexOutOfBoundsException), neighborOf(13) == 13, and the package-private
 * members stonesToMancalas() and GameState(int[]) that code in the default package can reach, is the same.
 */
public final class GameState {

    /** Returned by status() when the game is not over. */
    public static final int GAME_NOT_OVER = Integer.MIN_VALUE;

    /** Returned by status() when the game is over and the player on the bottom row has won. */
    public static final int GAME_OVER_WIN = 1;

    /** Returned by status() when the game is over and the players have tied. */
    public static final int GAME_OVER_TIE = 0;

    /** Returned by status() when the game is over and the player on the top row has won. */
    public static final int GAME_OVER_LOSE = -1;

    /** The 14 counts, from the point of view of the player to move (see the class comment). */
    public int[] state = {4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0};

    /** The starting board: 4 stones in every bin, both mancalas empty. */
    public GameState() {
    }

    /**
     * The starting board with {@code initialStones} stones in every bin.
     *
     * @param initialStones stones per bin; a value below 1 means 4
     */
    public GameState(int initialStones) {
        if (initialStones < 1) {
            initialStones = 4;
        }
        for (int i = 0; i < 6; i++) {
            state[i] = initialStones;
            state[i + 7] = initialStones;
        }
    }

    /**
     * A deep copy.
     *
     * @param source the board to copy
     */
    public GameState(GameState source) {
        this.state = copyOf(source.state);
    }

    /** Framework member (package-private there too): wraps the array itself, without copying it. */
    GameState(int[] state) {
        this.state = state;
    }

    /**
     * The status of the game, from the bottom row's point of view.
     *
     * @return GAME_NOT_OVER while both rows hold stones; otherwise GAME_OVER_WIN, GAME_OVER_TIE or GAME_OVER_LOSE,
     *         comparing each side's row plus mancala
     */
    public int status() {
        if (sum(7, 12) != 0 && sum(0, 5) != 0) {
            return GAME_NOT_OVER;
        }
        int bottom = sum(0, 6);
        int top = sum(7, 13);
        if (top < bottom) {
            return GAME_OVER_WIN;
        }
        if (top == bottom) {
            return GAME_OVER_TIE;
        }
        return GAME_OVER_LOSE;
    }

    /** @return whether the game is over (either row is empty) */
    public boolean gameOver() {
        return status() != GAME_NOT_OVER;
    }

    /** @return a copy of the 14 counts */
    public int[] toArray() {
        return copyOf(state);
    }

    /** @return the counts as a 2x7 matrix, bin i at [i / 7][i % 7] */
    public int[][] toMatrix() {
        int[][] matrix = new int[2][7];
        for (int i = 0; i < 14; i++) {
            matrix[i / 7][i % 7] = state[i];
        }
        return matrix;
    }

    /**
     * @param bin 0-13
     * @return the stones in {@code bin}
     */
    public int stoneCount(int bin) {
        return state[bin];
    }

    /**
     * @param row 0 (bottom) or 1 (top)
     * @param col 0-6
     * @return the stones in bin {@code 7 * row + col}
     */
    public int stoneCount(int row, int col) {
        return state[7 * row + col];
    }

    /**
     * Whether moving from {@code bin} is illegal: the bin is out of range (below 0, above 12), a mancala (6), or
     * empty. Like the framework, this does not look at whose turn it is. Unlike the framework, it never throws.
     *
     * @param bin the bin to test
     * @return true when the move is illegal
     */
    public boolean illegalMove(int bin) {
        if (bin < 0 || bin == 6 || bin > 12) {
            return true;
        }
        return state[bin] == 0;
    }

    /**
     * Plays the move from {@code bin} (not checked for legality, as in the framework).
     *
     * <p>All stones of the bin are sown one per bin counter-clockwise, skipping the opponent's mancala (13 when
     * sowing from the bottom row, 6 from the top row); 13 or more stones lap around into the emptied starting bin.
     * If the last stone lands in the mover's mancala and the game is not over, the mover moves again (true). If it
     * lands in a bin of the mover's own row that now holds exactly 1 stone, that stone and everything in the opposite
     * bin go to the mover's mancala, even when the opposite bin is empty. When either row is then empty the game is
     * over and each side's remaining stones go to its own mancala.
     *
     * @param bin the bin to move from
     * @return true when the mover moves again
     */
    public boolean applyMove(int bin) {
        int stones = state[bin];
        state[bin] = 0;
        int skipped = bin < 7 ? 13 : 6; // the opponent's mancala
        int at = bin;
        while (stones > 0) {
            at = (at + 1) % 14;
            if (at == skipped) {
                continue;
            }
            state[at]++;
            stones--;
        }
        // `at` is the bin of the last stone (or `bin` itself when it was empty).
        if ((at == 6 || at == 13) && !gameOver()) {
            return true;
        }
        if (at != 6 && at != 13 && at / 7 == bin / 7 && state[at] == 1) {
            int opposite = neighborOf(at);
            state[mancalaOf(bin)] += state[opposite] + 1;
            state[opposite] = 0;
            state[at] = 0;
        }
        if (gameOver()) {
            stonesToMancalas();
        }
        return false;
    }

    /** Turns the board around (bin i goes to (i + 7) % 14), so that the other player is on the bottom row. */
    public void rotate() {
        int[] rotated = new int[state.length];
        for (int i = 0; i < state.length; i++) {
            rotated[(i + 7) % 14] = state[i];
        }
        state = rotated;
    }

    /** @return the board drawn in ASCII, the bottom row's bins numbered 0-5 underneath */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        out.append("+---------------------------------------+\n");
        out.append("|    |");
        for (int i = 12; i >= 7; i--) {
            out.append(cell(state[i]));
        }
        out.append("    |\n");
        out.append('|').append(cell(state[13])).append("-----------------------------|").append(cell(state[6]));
        out.append('\n');
        out.append("|    |");
        for (int i = 0; i <= 5; i++) {
            out.append(cell(state[i]));
        }
        out.append("    |\n");
        out.append("+---------------------------------------+\n");
        out.append("        0    1    2    3    4    5       \n");
        return out.toString();
    }

    /**
     * @param bin a bin 0-12
     * @return the bin opposite {@code bin}: 12 - bin (13 for 13, as in the framework)
     */
    public int neighborOf(int bin) {
        return bin == 13 ? 13 : 12 - bin;
    }

    /**
     * @param bin a bin 0-13
     * @return the mancala of the row of {@code bin}: 6 for 0-6, 13 for 7-13
     */
    public int mancalaOf(int bin) {
        return bin / 7 * 7 + 6;
    }

    /** Framework member (package-private there too): moves each row's stones into its own mancala. */
    void stonesToMancalas() {
        state[6] += sum(0, 5);
        state[13] += sum(7, 12);
        for (int i = 0; i < 6; i++) {
            state[i] = 0;
            state[i + 7] = 0;
        }
    }

    private int sum(int from, int to) {
        int total = 0;
        for (int i = from; i <= to; i++) {
            total += state[i];
        }
        return total;
    }

    private static int[] copyOf(int[] source) {
        return source == null ? null : source.clone();
    }

    private static String cell(int stones) {
        return (stones < 10 ? "  " : " ") + stones + " |";
    }
}
