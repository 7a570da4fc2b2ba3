"""Notation tests of the bridge; they need neither OpenSpiel nor Ply."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bridge  # noqa: E402


class Notation(unittest.TestCase):
    def test_arrangements_unrank_lexicographically(self):
        self.assertEqual(bridge.unrank(0), [1, 2, 3, 4, 5, 6])
        self.assertEqual(bridge.unrank(1), [1, 2, 3, 4, 6, 5])
        self.assertEqual(bridge.unrank(96), [1, 6, 2, 3, 4, 5])
        self.assertEqual(bridge.unrank(719), [6, 5, 4, 3, 2, 1])

    def test_white_arrangements_are_read_from_the_corner(self):
        # OpenSpiel's White squares run row-major, (2,4) first and the corner (4,4) last.
        self.assertEqual(bridge.ply_setup_of("W", 0), "setup:654321")
        self.assertEqual(bridge.ply_setup_of("B", 0), "setup:123456")

    def test_moves(self):
        self.assertEqual(bridge.os_move_to_ply("W5-up*"), "5n")
        self.assertEqual(bridge.os_move_to_ply("W3-diag"), "3nw")
        self.assertEqual(bridge.os_move_to_ply("W2-left"), "2w")
        self.assertEqual(bridge.os_move_to_ply("B1-right*"), "1e")
        self.assertEqual(bridge.os_move_to_ply("B6-diag*"), "6se")
        self.assertEqual(bridge.os_move_to_ply("B4-down"), "4s")


if __name__ == "__main__":
    unittest.main()
