# syncthing's GUI assets are generated at build time and not in the module
# zip; the noassets tag builds without them.
export GOFLAGS=-tags=noassets
