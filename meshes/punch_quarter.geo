// fcsim — block [0,0.5] x [0,0.5] x [1,1.5] (metres): a quarter of a 1 m x 1 m x 0.5 m punch
// standing on the unit cube (cube.geo) in cases/two_blocks.json; its bottom face z = 1 covers a
// quarter of the cube's top face and its mesh does not match the cube's there.
//
// Physical groups:
//   surfaces  "xmin" (tag 1, x = 0), "xmax" (tag 2, x = 0.5), "ymin" (tag 3, y = 0),
//             "ymax" (tag 4, y = 0.5), "zmin" (tag 5, z = 1), "zmax" (tag 6, z = 1.5);
//   volume    "block" (tag 7).
// Element size: lc = 0.17 at refine 0 (3 elements per 0.5 m edge, nodes at multiples of 1/6 on
// the edges: they meet the cube's (multiples of 0.25 at refine 1) only at x, y in {0, 0.5}).
// fcsim sets Mesh.MeshSizeFactor = 2^-refine.

lc = 0.17;

Point(1) = {0, 0, 1, lc};
Point(2) = {0.5, 0, 1, lc};
Point(3) = {0.5, 0.5, 1, lc};
Point(4) = {0, 0.5, 1, lc};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = 0.5
Line(3) = {3, 4}; // y = 0.5
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = 1

// ext[0] the top face (z = 1.5), ext[1] the volume, ext[2..5] the sides swept by lines 1..4.
ext[] = Extrude {0, 0, 0.5} { Surface{1}; };

Physical Surface("xmin", 1) = {ext[5]};
Physical Surface("xmax", 2) = {ext[3]};
Physical Surface("ymin", 3) = {ext[2]};
Physical Surface("ymax", 4) = {ext[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {ext[0]};
Physical Volume("block", 7) = {ext[1]};
