/* Save writes the mesh to a file (it could overwrite any file the user can write). */
Point(1) = {0, 0, 0, 1};
Save "/dev/null";
