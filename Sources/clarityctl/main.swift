print("clarityctl")
