// Include of a file outside the mesh's folder (by absolute path).
Include "/etc/hostname";
