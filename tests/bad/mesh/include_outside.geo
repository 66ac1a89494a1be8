// Include of a file outside the mesh's folder (tests/bad/mesh), through "..".
Include "../../../meshes/cube.geo";
