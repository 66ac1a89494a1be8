// fcsim — block [0,1] x [0,1] x [1,2] (metres): the upper block of the contact patch test,
// meshed differently from cube.geo so that the interface z = 1 is non-matching.
//
// Physical groups:
//   surfaces  "xmin" (tag 1, x = 0), "xmax" (tag 2, x = 1), "ymin" (tag 3, y = 0),
//             "ymax" (tag 4, y = 1), "zmin" (tag 5, z = 1), "zmax" (tag 6, z = 2);
//   volume    "cube" (tag 7).
// Element size: characteristic length lc = 0.5 at refine 0 (2 elements per edge). fcsim sets
// Mesh.MeshSizeFactor = 2^-refine when it meshes this file, so every refine level halves the
// size (x8 elements). `gmsh -3 cube.geo` gives the refine-0 mesh.
// The Physical Volume matters: a .msh saved from this file keeps only the elements of
// physical groups, and without it there would be no tetrahedra in the file.

lc = 0.35; // non-matching with cube.geo (lc 0.5) at the interface z = 1

Point(1) = {0, 0, 1, lc};
Point(2) = {1, 0, 1, lc};
Point(3) = {1, 1, 1, lc};
Point(4) = {0, 1, 1, lc};
Line(1) = {1, 2}; // y = 0
Line(2) = {2, 3}; // x = 1
Line(3) = {3, 4}; // y = 1
Line(4) = {4, 1}; // x = 0
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1}; // z = 1

// Extruding the bottom face gives: ext[0] the top face (z = 2), ext[1] the volume, and
// ext[2..5] the side faces swept by lines 1..4.
ext[] = Extrude {0, 0, 1} { Surface{1}; };

Physical Surface("xmin", 1) = {ext[5]};
Physical Surface("xmax", 2) = {ext[3]};
Physical Surface("ymin", 3) = {ext[2]};
Physical Surface("ymax", 4) = {ext[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {ext[0]};
Physical Volume("cube", 7) = {ext[1]};
