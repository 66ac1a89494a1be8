// Abort; stops Gmsh's parser part-way without an error: a partial model.
Point(1) = {0, 0, 0, 1};
Abort;
Point(2) = {1, 0, 0, 1};
