"""Board helpers for Othello agents, API-compatible with the course's othello_shared.py (written for referee).

Boards are indexed board[row][column]; a cell is 0 (empty), 1 (dark) or 2 (light). Moves are (i, j) = (column,
row). The referee sends boards as tuples of tuples; every function here also accepts lists.
"""

# The eight directions as (dx, dy), in the order the course's helper scans them.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def find_lines(board, i, j, player):
    """The lines of opponent discs that `player` playing column i, row j would flip.

    Each line is a list of [column, row] pairs, nearest to (i, j) first; directions in DIRECTIONS order. The square
    itself is not checked for being empty.
    """
    size = len(board)
    other = 3 - player
    lines = []
    for dx, dy in DIRECTIONS:
        x, y = i + dx, j + dy
        run = []
        while 0 <= x < size and 0 <= y < size and board[y][x] == other:
            run.append([x, y])
            x, y = x + dx, y + dy
        if run and 0 <= x < size and 0 <= y < size and board[y][x] == player:
            lines.append(run)
    return lines


def get_possible_moves(board, player):
    """The legal moves of `player` as (column, row) tuples, column-major: column outer, row inner."""
    size = len(board)
    moves = []
    for i in range(size):
        for j in range(size):
            if board[j][i] == 0 and find_lines(board, i, j, player):
                moves.append((i, j))
    return moves


def play_move(board, player, i, j):
    """The board after `player` plays column i, row j (flipping every line), as a tuple of tuples."""
    rows = [list(row) for row in board]
    for line in find_lines(board, i, j, player):
        for x, y in line:
            rows[y][x] = player
    rows[j][i] = player
    return tuple(tuple(row) for row in rows)


def get_score(board):
    """(dark discs, light discs)."""
    dark = sum(row.count(1) for row in board)
    light = sum(row.count(2) for row in board)
    return dark, light
