// fcsim — block [0,1] x [0,1] x [0,1] (metres), the lower of two stacked blocks whose meshes MATCH at the
// interface z = 1 (cases/two_blocks_matching.json): stack_lower.geo and stack_upper.geo both
// start from the same surface z = 1 (same points, lines and size) and extrude it downwards
// resp. upwards, so Gmsh meshes that surface identically in both files and the interface nodes
// of the two blocks coincide.
//
// Physical groups:
//   surfaces  "xmin" (tag 1, x = 0), "xmax" (tag 2, x = 1), "ymin" (tag 3, y = 0),
//             "ymax" (tag 4, y = 1), "zmin" (tag 5), "zmax" (tag 6);
//   volume    "block" (tag 7).
// Element size: lc = 0.34 at refine 0 (3 elements per edge). fcsim sets
// Mesh.MeshSizeFactor = 2^-refine.

lc = 0.34;

Point(1) = {0, 0, 1, lc};
Point(2) = {1, 0, 1, lc};
Point(3) = {1, 1, 1, lc};
Point(4) = {0, 1, 1, lc};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = 1
Line(3) = {3, 4}; // y = 1
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = 1, the interface

// ext[0] the far face, ext[1] the volume, ext[2..5] the sides swept by lines 1..4.
ext[] = Extrude {0, 0, -1} { Surface{1}; };

Physical Surface("xmin", 1) = {ext[5]};
Physical Surface("xmax", 2) = {ext[3]};
Physical Surface("ymin", 3) = {ext[2]};
Physical Surface("ymax", 4) = {ext[4]};
Physical Surface("zmax", 6) = {1};
Physical Surface("zmin", 5) = {ext[0]};
Physical Volume("block", 7) = {ext[1]};
