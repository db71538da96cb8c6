print("linnet: under construction")
