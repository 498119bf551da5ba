
€€€€€ abc