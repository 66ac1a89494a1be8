#!/usr/bin/python3
"""Write the multi-volume block meshes of the many-body bad cases (tests/bad/case/*.msh):
blocks4.msh (4 unit cubes along x: 1-2 touching, 3-4 touching, 2-3 0.5 apart), blocks4_empty.msh
(the same and a physical volume block_5 with no element), blocks_overlap.msh (block_2 shifted
by (-0.1, 0.1, 0.1) m into block_1, block_4 by (-0.02, 0.05, 0.05) m into block_3: corners of one
block inside the other, the deepest 0.1 m from the nearest face, between block_1 and block_2).
Blocks are offset across x too, so that the penetrating corners are inside the other block rather
than on the planes of its faces, where a closest-point distance is 0."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "integration"))
from blocks_msh import write_blocks

NAMES = ["block_1", "block_2", "block_3", "block_4"]
B4 = [((0, 0, 0), (1, 1, 1)), ((1, 0, 0), (2, 1, 1)), ((2.5, 0, 0), (3.5, 1, 1)), ((3.5, 0, 0), (4.5, 1, 1))]
OVER = [((0, 0, 0), (1, 1, 1)), ((0.9, 0.1, 0.1), (1.9, 1.1, 1.1)), ((2.5, 0, 0), (3.5, 1, 1)), ((3.48, 0.05, 0.05), (4.48, 1.05, 1.05))]
write_blocks(os.path.join(here, "blocks4.msh"), B4, NAMES)
write_blocks(os.path.join(here, "blocks4_empty.msh"), B4, NAMES, empty=["block_5"])
write_blocks(os.path.join(here, "blocks_overlap.msh"), OVER, NAMES)
