module example.com/lockgap-examples

go 1.26.0
