// fcsim fuzzing — the smallest mesh: unit cube, one element per edge (a handful of
// tetrahedra), the groups of meshes/cube.geo. The case target links every name of meshes/ to
// this file (fuzz_case.c): FcCaseLoad meshes a .geo at refine 0 to estimate the size of a
// refined mesh (MeshSizeCheck_Private), and the content of the mesh does not matter there.
lc = 1;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {1, 1, 0, lc};
Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
ext[] = Extrude {0, 0, 1} { Surface{1}; };
Physical Surface("xmin", 1) = {ext[5]};
Physical Surface("xmax", 2) = {ext[3]};
Physical Surface("ymin", 3) = {ext[2]};
Physical Surface("ymax", 4) = {ext[4]};
Physical Surface("zmin", 5) = {1};
Physical Surface("zmax", 6) = {ext[0]};
Physical Volume("cube", 7) = {ext[1]};
