module = "acmecolors"
sourcefiles = {"acmecolors.sty"}
installfiles = {"acmecolors.sty"}
testfiledir = "testfiles"
checkengines = {"pdftex", "xetex", "luatex"}
typesetfiles = {"doc/acmecolors-doc.tex"}
