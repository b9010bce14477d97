print("clarityd")
