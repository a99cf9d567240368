module = "unithesis"
sourcefiles = {"unithesis.cls"}
installfiles = {"unithesis.cls"}
testfiledir = "testfiles"
checkengines = {"pdftex", "luatex"}
