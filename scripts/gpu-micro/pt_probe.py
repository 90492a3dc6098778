import torch
x = torch.randn(1 << 26, device="cuda")
s = torch.randn(2048, 2048, device="cuda")
b = torch.randn(8192, 8192, device="cuda")
for _ in range(2):
    torch.nn.functional.gelu(x)
    torch.softmax(s, dim=-1)
    torch.softmax(b, dim=-1)
torch.cuda.synchronize()
