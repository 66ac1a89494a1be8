// fcsim — unit cube [0,1]^3 (metres) hinged on its bottom edge x = 1, z = 0 (cases/cube_instrument.json).
//
// Physical groups:
//   surfaces  "xmin" (tag 1, x = 0), "xmax" (tag 2, x = 1), "ymin" (tag 3, y = 0),
//             "ymax" (tag 4, y = 1), "zmin" (tag 5, z = 0), "zmax" (tag 6, z = 1);
//   volume    "cube" (tag 7); curve "hinge" (tag 8, below).
// Element size: characteristic length lc = 0.5 at refine 0 (2 elements per edge). fcsim sets
// Mesh.MeshSizeFactor = 2^-refine when it meshes this file, so every refine level halves the
// size (x8 elements). `gmsh -3 cube.geo` gives the refine-0 mesh.
// The Physical Volume matters: a .msh saved from this file keeps only the elements of
// physical groups, and without it there would be no tetrahedra in the file.

lc = 0.5;

Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = 1
Line(3) = {3, 4}; // y = 1
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = 0

// Extruding the bottom face gives: ext[0] the top face (z = 1), ext[1] the volume, and
// ext[2..5] the side faces swept by lines 1..4.
ext[] = Extrude {0, 0, 1} { Surface{1}; };

Physical Surface("xmin", 1) = {ext[5]};
Physical Surface("xmax", 2) = {ext[3]};
Physical Surface("ymin", 3) = {ext[2]};
Physical Surface("ymax", 4) = {ext[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {ext[0]};
Physical Volume("cube", 7) = {ext[1]};

// The hinge: the bottom edge x = 1, z = 0 (line 2, from (1,0,0) to (1,1,0)). Holding its nodes
// leaves the cube free to turn rigidly about it (every held node lies on the axis), so a pushing
// instrument can turn it by tens of degrees with no strain but the contact's (courtecuisse Fig. 4).
Physical Curve("hinge", 8) = {2};
