// Exit; ends the process that reads the script: fcsim would stop with status 0, no output.
Point(1) = {0, 0, 0, 1};
Exit;
