package generated
